module github.com/relurl/relurl

go 1.26
