// A CommonJS module using ragci as README.md ("As a library") and docs/library.md say: require()
// fails (ragci is an ES module only), a dynamic import works. Run by test/docs/commonjs.test.ts
// from a CommonJS project with ragci in its node_modules; prints what it saw as JSON.
let requireError = null;
try {
  require("ragci");
} catch (error) {
  requireError = { code: error.code, message: error.message };
}

async function main() {
  const { analyze } = await import("ragci");
  const a = analyze({ ids: ["a", "b", "c"], n: [12, 3, 40], s: [7, 1, 22] });
  process.stdout.write(
    JSON.stringify({ requireError, micro: a.micro?.estimate, cr2: a.micro?.intervals.cr2 }),
  );
}

main();
