// TeX to MathML at build time (book/_ext/mathml.py): MathJax's own TeX input, run by node, reads
// a JSON list of [tex, display] pairs on stdin and writes their MathML as a JSON list on stdout.
// The pages then carry MathML, which browsers draw themselves: no script and no font to download.
const [mathjax] = process.argv.slice(2);
require(mathjax)
  .init({ loader: { load: ["input/tex"] } })
  .then((MathJax) => {
    const items = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const out = items.map(([tex, display]) => MathJax.tex2mml(tex, { display }));
    process.stdout.write(JSON.stringify(out));
  })
  .catch((err) => {
    console.error(err.message || String(err));
    process.exit(1);
  });
