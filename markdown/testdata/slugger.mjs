// Test oracle for package markdown: GitHub's anchors of headings, as npm's
// github-slugger (the rule remark and Docusaurus use) makes them. Reads
// JSON lines of {"headings": [...]} (oracle.py's) on standard input and
// prints, for each, a JSON array of the slugs, made unique on the page.
import GithubSlugger from 'github-slugger'
import { createInterface } from 'node:readline'

for await (const line of createInterface({ input: process.stdin })) {
  const slugger = new GithubSlugger()
  const { headings } = JSON.parse(line)
  console.log(JSON.stringify(headings.map(h => slugger.slug(h))))
}
