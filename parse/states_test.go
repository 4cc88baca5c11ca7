package parse

import "testing"

// TestStateNames: the scanners' states have names (stringer), for messages.
func TestStateNames(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{gsWantCreatorFile.String(), "WantCreatorFile"},
		{gsPrologue.String(), "Prologue"},
		{stDeadlockStacks.String(), "DeadlockStacks"},
		{stOwnable.String(), "Ownable"},
	} {
		if tt.got != tt.want {
			t.Errorf("state name %q, want %q", tt.got, tt.want)
		}
	}
}
