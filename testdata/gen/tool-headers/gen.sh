#!/bin/sh
# Writes testdata/formats/tool-headers-jdk17__* from ToolHeaders.java on OpenJDK 17 (README.md there).
set -e
w=$(mktemp -d)
javac -d "$w" ToolHeaders.java
for fam in hash-inline hash-state geode; do
  for mode in deadlock healthy; do
    java -cp "$w" ToolHeaders "$fam" "$mode" > "../../formats/tool-headers-jdk17__$fam-$mode.txt"
  done
done
rm -rf "$w"
