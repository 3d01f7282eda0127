package whatwg

import "github.com/relurl/relurl/internal/uts46"

// DomainToASCII is the URL Standard's "domain to ASCII" with beStrict
// false (section "IDNA"): an ASCII domain lowercased, any other run through
// UTS #46 ToASCII with the Standard's settings, so that its Unicode labels
// come out in Punycode ("bücher.example" gives "xn--bcher-kva.example").
// It fails where the host parser fails on a domain, with the
// domain-to-ASCII [ValidationError] the parser reports: when ToASCII
// refuses the domain, gives nothing, or gives a forbidden domain code point
// (the strict ToASCII of that error refuses those). The error's offset is
// 0: the domain is not a URL.
func DomainToASCII(domain string) (string, error) {
	result, err := domainToASCII(domain, isASCII(domain))
	if err != nil {
		return "", ValidationError{Name: "domain-to-ASCII"}
	}
	for i := 0; i < len(result); i++ {
		if hostTable[result[i]]&forbiddenDomain != 0 {
			return "", ValidationError{Name: "domain-to-ASCII"}
		}
	}
	return result, nil
}

// DomainToUnicode is the URL Standard's "domain to Unicode" (section
// "IDNA"), for showing a host to people: UTS #46 ToUnicode with the
// Standard's settings, so that Punycode labels come out in Unicode
// ("xn--bcher-kva.example" gives "bücher.example"). Where ToUnicode records
// an error, the domain is returned as given; the Standard never fails here.
func DomainToUnicode(domain string) string {
	if s, err := uts46.ToUnicode(domain, uts46.Options{}); err == nil {
		return s
	}
	return domain
}
