module golockheld

go 1.26
