package analyze

// Analyze computes the analysis of the moments in order. It does no I/O.
func Analyze(in []Input, opt Options) *Result {
	r := &Result{Version: "1"}
	for _, x := range in {
		r.Moments = append(r.Moments, Moment{Label: x.Label, Target: x.Target, Source: x.Dump.Source,
			Format: x.Dump.Format, Time: x.Dump.Time, Threads: x.Dump.ThreadCount(), Skipped: len(x.Dump.Skipped), Dump: x.Dump})
		r.Totals = append(r.Totals, x.Dump.ThreadCount())
	}
	return r
}
