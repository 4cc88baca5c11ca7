module golockchan

go 1.26
