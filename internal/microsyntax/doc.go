// Package microsyntax reads the small languages in which HTML and CSS
// write URLs: a srcset's image candidates, a refresh's content, and CSS's
// url() and @import. Package links finds links with them, package rewrite
// rewrites CSS with them, and the Chromium comparison reads srcsets as
// relurl does.
package microsyntax
