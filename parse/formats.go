package parse

// The detection chain. Order matters: the first format that claims the
// input (binary) or a line (text) wins. These tables are read-only.

var binaryFormats = []binaryFormat{
	{format: FormatGoProto, claim: claimProto, parse: parseProto},
	{format: FormatJVMJSON, claim: claimJVMJSON, parse: parseJVMJSON},
	{format: FormatActuatorJSON, claim: claimActuatorJSON, parse: parseActuatorJSON},
	{format: FormatJFR, claim: claimJFRJSON, parse: parseJFRJSONData},
}

var textFormats = []textFormat{
	{format: FormatJFR, starts: startsJFRText, parse: parseJFRText},
	{format: FormatGoDebug1, starts: startsGoDebug1, parse: parseGoDebug1},
	{format: FormatGoText, starts: startsGoText, parse: parseGoText},
	{format: formatGoAggregated, starts: startsGoAggregated, parse: parseGoAggregated},
	{format: formatDelve, starts: startsDelve, parse: parseDelve},
	{format: formatGoLand, starts: startsGoLand, parse: parseGoLand},
	{format: FormatJVMPlain, starts: startsJVMPlain, parse: parseJVMPlain},
	{format: FormatJavacore, starts: startsJavacore, parse: parseJavacore},
	{format: FormatJVMText, starts: startsJVMText, parse: parseJVMText},
}

var refusals = append(goRefusals, jvmRefusals...)
