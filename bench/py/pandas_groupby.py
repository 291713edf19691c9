"""pandas read_csv + groupby size/sum on a per-query CSV doc_id,query_id,hit.

Prints one JSON line: import, read and groupby times (perf_counter), the number of groups,
rows and hits.
"""
import json
import sys
import time

t0 = time.perf_counter()
import pandas as pd  # noqa: E402

t1 = time.perf_counter()
df = pd.read_csv(sys.argv[1])
t2 = time.perf_counter()
g = df.groupby("doc_id")["hit"].agg(["size", "sum"])
t3 = time.perf_counter()
print(
    json.dumps(
        {
            "import": t1 - t0,
            "read": t2 - t1,
            "groupby": t3 - t2,
            "documents": len(g),
            "rows": int(g["size"].sum()),
            "hits": int(g["sum"].sum()),
        }
    )
)
