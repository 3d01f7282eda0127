// Package zerotest checks, in a package's tests, that the methods of its
// value types work on their zero values, as net/netip's do: each exported
// method, on a zero value and on a pointer to one, with zero values for its
// arguments, must not panic.
package zerotest

import (
	"reflect"
	"testing"
)

// Check calls every exported method of the type of each of values on its
// zero value, and on a pointer to one, and fails t for each that panics.
// It returns how many calls it made. Left out: variadic methods, and those
// taking an interface, pointer, function, map or channel, whose nil is the
// caller's fault (an io.Reader that is nil), not the zero value's.
func Check(t *testing.T, values ...any) int {
	t.Helper()
	calls := 0
	for _, v := range values {
		zero := reflect.Zero(reflect.TypeOf(v))
		for _, recv := range []reflect.Value{zero, reflect.New(zero.Type())} {
			typ := recv.Type()
			for i := range typ.NumMethod() {
				m := typ.Method(i)
				if m.Type.IsVariadic() {
					continue
				}
				args := []reflect.Value{recv}
				for j := 1; j < m.Type.NumIn(); j++ {
					switch m.Type.In(j).Kind() {
					case reflect.Interface, reflect.Pointer, reflect.Func, reflect.Map, reflect.Chan:
						args = nil
					}
					if args == nil {
						break
					}
					args = append(args, reflect.Zero(m.Type.In(j)))
				}
				if args == nil {
					continue
				}
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("(%s).%s on a zero value panics: %v", typ, m.Name, r)
						}
					}()
					m.Func.Call(args)
					calls++
				}()
			}
		}
	}
	return calls
}
