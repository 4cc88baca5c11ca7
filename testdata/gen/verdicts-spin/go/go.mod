module verdictsspin

go 1.26
