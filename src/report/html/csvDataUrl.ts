/** A CSV as a data: URL (base64, so any byte survives), downloadable without a request. */
export function csvDataUrl(csv: string): string {
  return `data:text/csv;charset=utf-8;base64,${Buffer.from(csv, "utf8").toString("base64")}`;
}
