#!/usr/bin/env bash
# Compresses the host graph that relurl_spark.hostgraph wrote into a
# WebGraph BVGraph, as cc-webgraph does: webgraph.sh HOSTGRAPH_DIR BASENAME
# writes BASENAME.graph, .offsets and .properties. WebGraph 3.6.12 and its
# dependencies come from Maven Central (mvn, Java 17).
set -euo pipefail
dir=$1 basename=$2
here="$(cd "$(dirname "$0")" && pwd)"
cp="$here/classpath.txt"
if [ ! -s "$cp" ]; then
  mvn -q -f "$here/pom.xml" dependency:build-classpath -Dmdep.outputFile="$cp" >&2
fi
# The edges are sorted and without duplicates: read them once, from
# standard input. Every host of the graph is the end of some edge, so the
# graph has as many nodes as vertices/ has lines.
zcat "$dir"/edges/part-*.gz |
  java -cp "$(cat "$cp")" it.unimi.dsi.webgraph.BVGraph --once -g ArcListASCIIGraph - "$basename" >&2
grep -E '^(nodes|arcs)=' "$basename.properties"
