import { firstScanStarted } from "./scanGate.js";

/**
 * `reading` with `load` started once DuckDB's scan of the input is under way, or once the
 * reading has ended when it had no scan (aggregated input, a database). The main thread only
 * waits during a scan: modules loaded then (the estimators and @stdlib, ~0.1 s) cost the scan
 * about a quarter of their time, where loaded before it they would delay it by all of it.
 */
export async function loadDuringScan<T, M>(
  reading: Promise<T>,
  load: () => Promise<M>,
): Promise<[T, M]> {
  const ended = reading.then(
    () => undefined,
    () => undefined,
  );
  const loaded = Promise.race([firstScanStarted(), ended]).then(load);
  return Promise.all([reading, loaded]);
}
