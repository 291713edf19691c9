import { optionRef, RagciError } from "../../core/errors.js";
import type { DialectName } from "./dialects.js";

/** The databases `--from` reads, each through its own Node client. */
export type Warehouse =
  | "postgres"
  | "bigquery"
  | "snowflake"
  | "clickhouse"
  | "trino"
  | "databricks";

/** What reads each warehouse: its dialect, its name in messages and its client package. */
export const WAREHOUSES: Readonly<
  Record<
    Warehouse,
    {
      readonly dialect: DialectName;
      readonly label: string;
      readonly schemes: readonly string[];
      /** The npm package, and the install line a missing one is named with. */
      readonly client: string;
      readonly install: string;
      readonly form: string;
    }
  >
> = {
  postgres: {
    dialect: "postgres",
    label: "PostgreSQL",
    schemes: ["postgresql", "postgres"],
    client: "pg",
    install: "pg",
    form: "postgresql://user@host:5432/db",
  },
  bigquery: {
    dialect: "bigquery",
    label: "BigQuery",
    schemes: ["bigquery"],
    client: "@google-cloud/bigquery",
    // 9.x needs Node 22; 8.x is the last line for Node 20.
    install: "@google-cloud/bigquery@8",
    form: "bigquery://project/dataset?location=EU",
  },
  snowflake: {
    dialect: "snowflake",
    label: "Snowflake",
    schemes: ["snowflake"],
    client: "snowflake-sdk",
    install: "snowflake-sdk@3",
    form: "snowflake://account/database/schema?warehouse=WH&role=R",
  },
  clickhouse: {
    dialect: "clickhouse",
    label: "ClickHouse",
    schemes: ["clickhouse", "clickhouse+https"],
    client: "@clickhouse/client",
    install: "@clickhouse/client@1",
    form: "clickhouse://host:8123/db (clickhouse+https://host:8443/db over TLS)",
  },
  trino: {
    dialect: "trino",
    label: "Trino",
    schemes: ["trino", "trino+https"],
    client: "trino-client",
    install: "trino-client@0.2",
    form: "trino://user@host:8080/catalog/schema (trino+https://… over TLS)",
  },
  databricks: {
    dialect: "databricks",
    label: "Databricks",
    schemes: ["databricks"],
    client: "@databricks/sql",
    install: "@databricks/sql@2",
    form: "databricks://host/sql/1.0/warehouses/ID?catalog=C&schema=S",
  },
};

/** A --from URL, parsed: which warehouse, and how it may be shown. */
export interface DatabaseUrl {
  readonly warehouse: Warehouse;
  readonly url: URL;
  /** The URL as it may be shown in messages and reports: any password replaced by ***. */
  readonly shown: string;
}

/** A database URL as it may be shown: the password, if any, replaced by ***. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
  }
}

/** The URL forms --from accepts, one per warehouse, for messages and help. */
export function urlForms(): string {
  return Object.values(WAREHOUSES)
    .map((w) => w.form)
    .join(", ");
}

/**
 * Which warehouse a --from URL names, by its scheme.
 *
 * @throws RagciError for an unknown scheme or a URL that does not parse, naming the forms
 */
export function parseDatabaseUrl(text: string): DatabaseUrl {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  const found = (Object.keys(WAREHOUSES) as Warehouse[]).find((w) =>
    WAREHOUSES[w].schemes.includes(scheme ?? ""),
  );
  if (!found) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("url")} ${scheme ? `${scheme}:…` : redactUrl(text)}: give a URL of one of ${urlForms()}`,
      { option: "url" },
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RagciError(
      "invalid-option",
      `${optionRef("url")} ${redactUrl(text)}: not a URL; for ${WAREHOUSES[found].label} write ${WAREHOUSES[found].form}`,
      { option: "url" },
    );
  }
  return { warehouse: found, url, shown: redactUrl(text) };
}

/** A URL part decoded (%C3%A9 → é); "" when absent. */
export function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The URL's path split into its non-empty, decoded segments. */
export function pathSegments(url: URL): string[] {
  return url.pathname
    .split("/")
    .filter((p) => p !== "")
    .map(decoded);
}

/** A query parameter, or undefined when absent or empty. */
export function parameter(url: URL, name: string): string | undefined {
  const value = url.searchParams.get(name);
  return value === null || value === "" ? undefined : value;
}

/** The environment variables the warehouse readers take credentials from. */
export type Environment = Readonly<Record<string, string | undefined>>;
