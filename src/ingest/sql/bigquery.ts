import { optionRef, RagciError } from "../../core/errors.js";
import type { ConnectionConfig, DatabaseConnection, DatabaseRow } from "./databaseConnection.js";
import { loadClient } from "./databaseConnection.js";
import { type DatabaseUrl, parameter, pathSegments } from "./databaseUrl.js";

/** The part of @google-cloud/bigquery 8.x used here (build/src/bigquery.d.ts). */
interface BigQueryModule {
  readonly BigQuery: new (options: {
    projectId: string;
    location?: string;
  }) => {
    createQueryJob(query: BigQueryJobOptions): Promise<
      [
        {
          metadata?: {
            statistics?: { query?: { schema?: { fields?: { name?: string }[] } } };
          };
        },
      ]
    >;
    query(query: BigQueryJobOptions): Promise<[DatabaseRow[]]>;
  };
}

interface BigQueryJobOptions {
  query: string;
  dryRun?: boolean;
  defaultDataset?: { projectId: string; datasetId: string };
  location?: string;
}

export interface BigQueryConfig {
  readonly projectId: string;
  /** Unqualified table names resolve in this dataset. */
  readonly dataset: string | null;
  readonly location: string | null;
}

/**
 * bigquery://PROJECT[/DATASET][?location=EU]. Credentials are Google's Application Default
 * Credentials, found by the client itself (GOOGLE_APPLICATION_CREDENTIALS, gcloud's login, or
 * the metadata server); none is in the URL.
 */
export function bigqueryConfig(target: DatabaseUrl): ConnectionConfig<BigQueryConfig> {
  const { url } = target;
  const [dataset, ...rest] = pathSegments(url);
  if (!url.hostname || rest.length > 0 || url.username || url.password) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("url")} ${target.shown}: write bigquery://PROJECT/DATASET (credentials come from GOOGLE_APPLICATION_CREDENTIALS or gcloud, not the URL)`,
      { option: "url" },
    );
  }
  return {
    config: {
      projectId: url.hostname,
      dataset: dataset ?? null,
      location: parameter(url, "location") ?? null,
    },
    secrets: [],
  };
}

export async function openBigQuery(c: BigQueryConfig): Promise<DatabaseConnection> {
  const { BigQuery } = await loadClient<BigQueryModule>("bigquery");
  const client = new BigQuery({
    projectId: c.projectId,
    ...(c.location ? { location: c.location } : {}),
  });
  const job = (query: string): BigQueryJobOptions => ({
    query,
    ...(c.dataset ? { defaultDataset: { projectId: c.projectId, datasetId: c.dataset } } : {}),
    ...(c.location ? { location: c.location } : {}),
  });
  return {
    // A dry run: BigQuery checks the statement and returns its schema without reading (or
    // billing) a byte, where a LIMIT 0 would still scan the columns.
    columns: async (sql) => {
      const [dry] = await client.createQueryJob({
        ...job(sql),
        dryRun: true,
      });
      const fields = dry.metadata?.statistics?.query?.schema?.fields ?? [];
      return fields.map((f) => f.name ?? "");
    },
    rows: async (sql) => (await client.query(job(sql)))[0],
    close: async () => {},
  };
}
