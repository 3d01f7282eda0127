// The Node yardstick of "relurl url -get '{host}'": reads one URL a line
// from the file named, prints new URL(line).hostname for each, or an empty
// line where it throws.
const lines = require("fs").readFileSync(process.argv[2], "utf8").split("\n");
if (lines[lines.length - 1] === "") lines.pop();
const out = [];
for (const line of lines) {
  try { out.push(new URL(line).hostname); } catch (e) { out.push(""); }
}
process.stdout.write(out.join("\n") + "\n");
