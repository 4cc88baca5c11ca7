module dumpdiff-bench

go 1.26.8

replace github.com/dumpdiff/dumpdiff => ../

require (
	github.com/DataDog/gostackparse v0.7.0
	github.com/maruel/panicparse/v2 v2.5.0
)

require (
	github.com/dumpdiff/dumpdiff v0.0.0-00010101000000-000000000000
	github.com/google/pprof v0.0.0-20261105003125-4bf881d7fb0b // indirect
)
