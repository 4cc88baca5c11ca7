module dumpdiff-bench

go 1.26.8

replace github.com/dumpdiff/dumpdiff => ../

require (
	github.com/DataDog/gostackparse v0.7.0
	github.com/maruel/panicparse/v2 v2.5.0
)
