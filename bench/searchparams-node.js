// The Node yardstick of SearchParams: parses and serializes the query of
// each URL of the file named with URLSearchParams, timed in the process
// after the data is read, and prints the median of 10 passes per query.
const queries = [];
for (const line of require("fs").readFileSync(process.argv[2], "utf8").split("\n")) {
  const i = line.indexOf("?");
  if (i >= 0) queries.push(line.slice(i + 1).split("#")[0]);
}
let n = 0;
const run = () => { for (const q of queries) n += new URLSearchParams(q).toString().length; };
for (let w = 0; w < 20; w++) run(); // warm up the JIT
const times = [];
for (let r = 0; r < 10; r++) {
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < 20; k++) run();
  times.push(Number(process.hrtime.bigint() - t0) / (20 * queries.length));
}
times.sort((a, b) => a - b);
console.log(`  node URLSearchParams ${((times[4] + times[5]) / 2).toFixed(1)} ns (${queries.length} queries)`);
