package analyze

import (
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestIDELauncherThreadQuiet: IntelliJ's launcher thread, in every JVM the
// IDE starts, reads a socket for ever by design: pasted alone (a person
// asking what it is) it is the tool's own thread, not a stuck read. Frames
// as IntelliJ's idea_rt prints them (AppMainV2$1.run).
func TestIDELauncherThreadQuiet(t *testing.T) {
	paste := `"Monitor Ctrl-Break" #21 daemon prio=5 os_prio=0 cpu=15.63ms elapsed=120.50s tid=0x000001d5f8c1b800 nid=0x2f44 runnable  [0x000000b5f2dfe000]
   java.lang.Thread.State: RUNNABLE
	at sun.nio.ch.SocketDispatcher.read0(java.base@17.0.15/Native Method)
	at sun.nio.ch.NioSocketImpl.implRead(java.base@17.0.15/NioSocketImpl.java:322)
	at sun.nio.ch.NioSocketImpl.read(java.base@17.0.15/NioSocketImpl.java:355)
	at java.net.Socket$SocketInputStream.read(java.base@17.0.15/Socket.java:966)
	at sun.nio.cs.StreamDecoder.readBytes(java.base@17.0.15/StreamDecoder.java:270)
	at java.io.BufferedReader.readLine(java.base@17.0.15/BufferedReader.java:329)
	at com.intellij.rt.execution.application.AppMainV2$1.run(AppMainV2.java:49)
`
	ds, err := parse.Parse("paste.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Analyze([]Input{{Dump: ds[0]}}, Options{}).Findings {
		t.Errorf("the IDE's launcher thread pasted alone: %s %s %s", f.Kind, f.Pool, f.State)
	}
}
