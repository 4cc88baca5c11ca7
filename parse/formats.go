package parse

import "bytes"

// The detection chain. Order matters: the first format that claims the
// input (binary) or a line (text) wins. These tables are read-only.

var binaryFormats = []binaryFormat{
	{format: FormatGoProto, claim: claimProto, parse: parseProto},
	{format: FormatJVMJSON, claim: claimJVMJSON, parse: parseJVMJSON},
	{format: FormatActuatorJSON, claim: claimActuatorJSON, parse: parseActuatorJSON},
	{format: FormatJFR, claim: claimJFRJSON, parse: parseJFRJSONData},
	{format: FormatVThreadScheduler, claim: claimVThreadScheduler, parse: parseVThreadScheduler},
}

var textFormats = []textFormat{
	{format: FormatJFR, starts: startsJFRText, parse: parseJFRText},
	{format: FormatGoDebug1, starts: startsGoDebug1, parse: parseGoDebug1, goesOn: goesOnGoDebug1},
	{format: FormatGoText, starts: startsGoText, parse: parseGoText, goesOn: isGoHeader, join: goJoin},
	{format: formatPprofTraces, starts: startsPprofTraces, parse: parsePprofTraces},
	{format: formatGoAggregated, starts: startsGoAggregated, parse: parseGoAggregated},
	{format: formatDelve, starts: startsDelve, parse: parseDelve},
	{format: formatGoLand, starts: startsGoLand, parse: parseGoLand},
	{format: formatEclipse, starts: startsEclipse, parse: parseEclipse},
	{format: formatKarafThread, starts: startsKarafThread, parse: parseKarafThread, join: karafJoin},
	{format: FormatJVMPlain, starts: startsJVMPlain, parse: parseJVMPlain},
	{format: FormatJavacore, starts: startsJavacore, parse: parseJavacore, goesOn: goesOnJavacore},
	{format: FormatJVMText, starts: startsJVMText, parse: parseJVMText, goesOn: goesOnJVMText, join: jvmJoin},
	{format: formatJRockit, starts: startsJRockit, parse: parseJRockit, goesOn: goesOnJVMText, join: jvmJoin},
	{format: formatLockReport, starts: startsLockReport, parse: parseLockReport},
	{format: formatBlockedWarning, starts: startsBlockedWarning, parse: parseBlockedWarning, join: blockedJoin},
	{format: formatWatchdog, starts: startsWatchdog, parse: parseWatchdog},
}

var refusals = append(append(goRefusals, pprofRefusals...), jvmRefusals...)

// goesOnGoDebug1 is a debug=1 record line ("3 @ 0x48618e ..."): a profile
// pasted in parts goes on with one (fence.go).
func goesOnGoDebug1(line []byte) bool { return classifyDebug1Line(line) == d1Record }

// goesOnJavacore is a javacore thread record: a thread's first line.
func goesOnJavacore(line []byte) bool { return bytes.HasPrefix(line, []byte("3XMTHREADINFO ")) }

// goesOnJVMText is a JVM thread's quoted name, or a frame: a dump pasted in
// parts goes on with a thread, or in the middle of one.
func goesOnJVMText(line []byte) bool {
	return len(line) > 0 && line[0] == '"' || bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("at "))
}
