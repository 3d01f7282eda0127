//go:build !unix

package main

func noCoreDump() {}
