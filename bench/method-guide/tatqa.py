"""A second real census for the method guide: BM25 and TF-IDF retrieval on TAT-QA.

TAT-QA (Zhu et al., ACL 2021, "TAT-QA: A Question Answering Benchmark on a Hybrid of Tabular
and Textual Content in Finance"; MIT licence) pairs a table from a company's annual report with
the paragraphs around it (a "context") and asks questions about them. Each context is a
document here, its questions the queries: the document is the sampling unit, as in COVID-QA.

Input: the files dataset_raw/tatqa_dataset_dev.json and dataset_raw/tatqa_dataset_test_gold.json
of the public repository NExTplusplus/TAT-QA (commit 870accc41953dcde885aabeb963d94aabdc0fbc3),
unmodified (the script prints their SHA-256):

  tatqa_dataset_dev.json        8da095a819af6db3c14877c6df2d4d29960e41d1a63dd1fa853507bd2a616af5
  tatqa_dataset_test_gold.json  c4d08418359c1d76468dec420ee748a37f48c06b63cb8ec2766f19d5d314b597

(the training file is not used). 555 contexts, 3,331 questions: 6 per context (one has 7), so
sizes are even and micro and macro nearly coincide; what this census adds is real rates, real
within-document correlation and a real pair of systems, in another domain than COVID-QA's.

How the results are made, as for examples/covidqa-retrieval.csv:
- Chunks: each paragraph of a context is a chunk, and so is its table (cells joined by spaces,
  row by row): 3,190 chunks over the 555 contexts.
- A question's gold chunks are the paragraphs it cites (`rel_paragraphs`), and the table when
  its answer comes from the table (`answer_from` "table" or "table-text").
- Every question is ranked against every chunk of every context: lower-cased \\w+ tokens, the
  small stop-word list below, BM25 with k1 = 1.2, b = 0.75, and TF-IDF cosine with log-tf and
  smooth idf; ties broken by chunk order; a chunk scoring 0 is not retrieved.
- Per question: rank of the best-ranked gold chunk (empty when none is retrieved), hit1, hit5,
  hit10 (0/1) and rr (reciprocal rank, 0 when none is retrieved).

Output (committed as bench/method-guide/censuses/tatqa-retrieval.csv):
  doc_id,query_id,system,rank,hit1,hit5,hit10,rr

Usage: python3 tatqa.py DEV.json TEST_GOLD.json OUT.csv
"""
import hashlib
import json
import re
import sys

import numpy as np
from scipy import sparse

STOP = set(
    "a an and are as at be by for from has have in is it its of on or that the this to was were "
    "what which who whom with how when where why did does do".split()
)
TOKEN = re.compile(r"\w+")


def tokens(text):
    return [t for t in TOKEN.findall(text.lower()) if t not in STOP]


def table_text(table):
    return " ".join(" ".join(cell for cell in row) for row in table)


def load(paths):
    contexts = []
    for path in paths:
        raw = open(path, "rb").read()
        print(f"{path}: SHA-256 {hashlib.sha256(raw).hexdigest()}", file=sys.stderr)
        contexts.extend(json.loads(raw))
    return contexts


def build(contexts):
    chunks, chunk_doc, queries = [], [], []
    for d, ctx in enumerate(contexts):
        doc = f"c{d + 1:03d}"
        table_chunk = len(chunks)
        chunks.append(table_text(ctx["table"]["table"]))
        chunk_doc.append(doc)
        paragraph_chunk = {}
        for p in sorted(ctx["paragraphs"], key=lambda p: p["order"]):
            paragraph_chunk[str(p["order"])] = len(chunks)
            chunks.append(p["text"])
            chunk_doc.append(doc)
        for q in sorted(ctx["questions"], key=lambda q: q["order"]):
            gold = {paragraph_chunk[r] for r in q["rel_paragraphs"] if r in paragraph_chunk}
            if q["answer_from"] in ("table", "table-text") or not gold:
                gold.add(table_chunk)
            queries.append((doc, f"{doc}q{q['order']}", q["question"], sorted(gold)))
    return chunks, chunk_doc, queries


def matrices(chunks, queries):
    vocab = {}
    def counts(texts):
        rows, cols, vals = [], [], []
        for i, text in enumerate(texts):
            seen = {}
            for t in tokens(text):
                j = vocab.setdefault(t, len(vocab))
                seen[j] = seen.get(j, 0) + 1
            for j, c in seen.items():
                rows.append(i)
                cols.append(j)
                vals.append(c)
        return rows, cols, vals
    c = counts(chunks)
    q = counts([x[2] for x in queries])
    shape = len(vocab)
    C = sparse.csr_matrix((c[2], (c[0], c[1])), shape=(len(chunks), shape), dtype=np.float64)
    Q = sparse.csr_matrix((q[2], (q[0], q[1])), shape=(len(queries), shape), dtype=np.float64)
    return C, Q


def bm25(C, Q, k1=1.2, b=0.75):
    n_docs = C.shape[0]
    df = np.asarray((C > 0).sum(axis=0)).ravel()
    idf = np.log(1 + (n_docs - df + 0.5) / (df + 0.5))
    length = np.asarray(C.sum(axis=1)).ravel()
    norm = k1 * (1 - b + b * length / length.mean())
    W = C.tocoo()
    tf = W.data
    weights = tf * (k1 + 1) / (tf + norm[W.row]) * idf[W.col]
    W = sparse.csr_matrix((weights, (W.row, W.col)), shape=C.shape)
    B = (Q > 0).astype(np.float64)  # each query term once
    return (B @ W.T).toarray()


def tfidf(C, Q):
    n_docs = C.shape[0]
    df = np.asarray((C > 0).sum(axis=0)).ravel()
    idf = np.log((1 + n_docs) / (1 + df)) + 1
    def weigh(M):
        M = M.tocsr(copy=True)
        M.data = 1 + np.log(M.data)
        M = M @ sparse.diags(idf)
        lengths = np.sqrt(np.asarray(M.multiply(M).sum(axis=1)).ravel())
        lengths[lengths == 0] = 1
        return sparse.diags(1 / lengths) @ M
    return (weigh(Q) @ weigh(C).T).toarray()


def ranks(scores, queries):
    out = []
    order_index = np.arange(scores.shape[1])
    for i, (_, _, _, gold) in enumerate(queries):
        s = scores[i]
        # Rank = 1 + chunks scoring higher + earlier chunks scoring the same (ties by chunk order).
        best = None
        for g in gold:
            if s[g] <= 0:
                continue
            r = 1 + int(np.sum(s > s[g])) + int(np.sum((s == s[g]) & (order_index < g)))
            best = r if best is None else min(best, r)
        out.append(best)
    return out


def main(dev, test, out):
    contexts = load([dev, test])
    chunks, _, queries = build(contexts)
    C, Q = matrices(chunks, queries)
    rows = ["doc_id,query_id,system,rank,hit1,hit5,hit10,rr"]
    for name, scores in (("bm25", bm25(C, Q)), ("tfidf", tfidf(C, Q))):
        for (doc, qid, _, _), r in zip(queries, ranks(scores, queries)):
            hit = lambda k: int(r is not None and r <= k)
            rr = 0 if r is None else 1 / r
            rows.append(f"{doc},{qid},{name},{'' if r is None else r},{hit(1)},{hit(5)},{hit(10)},{rr:.6g}")
        got = [int(r is not None and r <= 5) for r in ranks(scores, queries)]
        print(f"{name}: hit@5 {np.mean(got):.4f}", file=sys.stderr)
    open(out, "w").write("\n".join(rows) + "\n")
    print(f"{len(contexts)} contexts, {len(chunks)} chunks, {len(queries)} questions -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:4])
