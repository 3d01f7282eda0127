package source

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// This file is the retry policy of every request relurl makes, for the
// objects of this package and for the targets of package linkcheck: which
// failures are worth another try, and how long to wait before it.

// Retry bounds the tries at one failure of an object: at its first
// request, or where reading broke. The count and the wait start again
// once reading makes progress, so a long archive may be resumed many times.
type Retry struct {
	Attempts int           // tries after a failure
	MaxWait  time.Duration // the longest total wait between tries
	Base     time.Duration // the first wait's bound, doubled at each try; 0 means 500ms
	// Refused retries a connection the host refuses, which fails at once
	// otherwise, as wget and curl fail (curl's --retry-connrefused): a
	// refusal says nothing listens, most often a mistyped port, and a
	// server that is still starting is the caller's to wait for.
	Refused bool
}

// DefaultRetry is 8 tries within 2 minutes of waiting in all.
var DefaultRetry = Retry{Attempts: 8, MaxWait: 2 * time.Minute, Base: 500 * time.Millisecond}

// WithDefaults returns r with DefaultRetry's values where it has none:
// the zero Retry is DefaultRetry, and so is one with Refused alone.
func (r Retry) WithDefaults() Retry {
	if r == (Retry{Refused: r.Refused}) {
		d := DefaultRetry
		d.Refused = r.Refused
		return d
	}
	if r.MaxWait <= 0 {
		r.MaxWait = DefaultRetry.MaxWait
	}
	if r.Base <= 0 {
		r.Base = DefaultRetry.Base
	}
	return r
}

// Wait returns how long to wait before try n (1 for the first retry) of
// the failure failed, when waited has been waited since the last progress.
// When no retry is left it returns an error instead, which is failed
// itself when the tries are spent, or says why not: failed is not
// transient (a connection error, a timeout, or a status TransientStatus
// names), or the wait would take the total past MaxWait (a server's
// Retry-After included: one that asks for more is not waited for at all).
//
// The wait is a Retry-After the failure carries, else a random wait up to
// Base·2^(n-1) ("full jitter", so that many readers that failed together
// do not come back together), capped at 30 seconds.
func (r Retry) Wait(n int, waited time.Duration, failed error) (time.Duration, error) {
	if !transient(failed) || n > r.Attempts || refused(failed) && !r.Refused {
		return 0, failed
	}
	var after interface{ RetryAfter() time.Duration }
	if errors.As(failed, &after) && after.RetryAfter() > 0 {
		wait := after.RetryAfter()
		if waited+wait > r.MaxWait {
			return 0, fmt.Errorf("%w; not retried: the server asks to wait %v (Retry-After), past the %v that retries may wait in all", failed, wait, r.MaxWait)
		}
		return wait, nil
	}
	bound := min(r.Base<<min(n-1, 16), 30*time.Second)
	wait := time.Duration(rand.Int64N(int64(bound)) + 1)
	if waited+wait > r.MaxWait {
		return 0, fmt.Errorf("%w; giving up: retrying would wait over %v in all", failed, r.MaxWait)
	}
	return wait, nil
}

// transient reports whether a failure is worth another try: a network
// error, a stall, an answer 408, 429, 500, 502, 503 or 504. Not what no
// retry can mend: a name that does not exist, a certificate that is not
// valid or a server that does not speak TLS, a response header over the
// client's limit, an answer such as 403 or 404, a redirect to a scheme
// other than http and https, a changed object, a cancellation.
func transient(err error) bool {
	var status interface{ HTTPStatus() int }
	if errors.As(err, &status) {
		return TransientStatus(status.HTTPStatus())
	}
	var (
		permanent *permanentError
		dns       *net.DNSError
		verify    *tls.CertificateVerificationError
		record    tls.RecordHeaderError
		unknownCA x509.UnknownAuthorityError
		badCert   x509.CertificateInvalidError
		badHost   x509.HostnameError
	)
	switch {
	case errors.As(err, &permanent), errors.As(err, &verify), errors.As(err, &record),
		errors.As(err, &unknownCA), errors.As(err, &badCert), errors.As(err, &badHost):
		return false
	case errors.As(err, &dns):
		return !dns.IsNotFound // a name that does not exist will not, soon
	case err != nil && strings.Contains(err.Error(), "server response headers exceeded"):
		// net/http's limit on a response header (Transport's
		// MaxResponseHeaderBytes), an error without a type of its own:
		// the same server sends the same header again.
		return false
	}
	return !errors.Is(err, context.Canceled)
}

// refused reports whether err is a connection the host refused: nothing
// listens at that port.
func refused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) ||
		err != nil && strings.Contains(err.Error(), "actively refused") // Windows' WSAECONNREFUSED
}

// TransientStatus reports whether an HTTP status says to ask again: 408,
// 429, 500, 502, 503, 504.
func TransientStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusInternalServerError,
		http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// retryAfter returns the wait an HTTP answer's Retry-After header asks
// for (RFC 9110, 10.2.3: seconds, or an HTTP date), 0 when it has none or
// one that does not parse.
func retryAfter(h http.Header) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		if n > int64(100*365*24*time.Hour/time.Second) {
			n = int64(100 * 365 * 24 * time.Hour / time.Second) // a century: no overflow
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

// permanentError is a failure no retry mends: a changed object, a range
// the server cannot give, a redirect that cannot be followed.
type permanentError struct{ msg string }

func (e *permanentError) Error() string { return e.msg }
