package collect

import "testing"

func TestGather(t *testing.T) {
	done := make(chan struct{})
	if err := Gather([]string{"", "a", "b", "c", "d"}, done); err == nil {
		t.Fatal("want an error")
	}
	<-done // the workers were to finish: they never do
}
