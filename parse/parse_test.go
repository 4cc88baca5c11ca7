package parse

import "testing"

// TestReadSize: files of up to 64 MiB and streams are read 1 MiB at a
// time, larger files in 64 reads, up to 8 MiB each.
func TestReadSize(t *testing.T) {
	for _, c := range []struct {
		size int64
		want int
	}{{0, 1 << 20}, {1000, 1 << 20}, {64 << 20, 1 << 20}, {256 << 20, 4 << 20}, {911 << 20, 8 << 20}, {1 << 40, 8 << 20}} {
		if got := readSize(c.size); got != c.want {
			t.Errorf("readSize(%d) = %d, want %d", c.size, got, c.want)
		}
	}
}
