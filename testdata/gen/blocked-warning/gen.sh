#!/bin/sh
# Writes testdata/formats/blocked-warning-* from Checker.java run on OpenJDK 17
# and Temurin 25 (see README.md). Run from this folder.
set -e
out=../../formats
w=$(mktemp -d)
for jdk in 17 25; do
  case $jdk in
    17) bin=/usr/lib/jvm/java-17-openjdk-amd64/bin ;;
    25) bin=/usr/lib/jvm/temurin-25-jdk-amd64/bin ;;
  esac
  mkdir -p "$w/$jdk"
  cp=/usr/share/java/netty-transport.jar:/usr/share/java/netty-common.jar:/usr/share/java/netty-buffer.jar:/usr/share/java/netty-resolver.jar
  "$bin/javac" -cp "$cp" -d "$w/$jdk" src/io/vertx/core/VertxException.java src/Checker.java
  for mode in loop-latch loop-lock worker-once; do
    "$bin/java" -cp "$w/$jdk:$cp" Checker "$mode" 2> "$out/blocked-warning-jdk${jdk}__$mode.txt"
  done
done
rm -rf "$w"
