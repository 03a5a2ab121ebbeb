module github.com/sg-runtime/sg/bindings/go

go 1.19
