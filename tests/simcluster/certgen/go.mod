module github.com/ascend-compile/tests/simcluster/certgen

go 1.23.0
