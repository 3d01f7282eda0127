// Command mhtml-snapshot makes testdata/documents/chromium.mhtml: it serves a
// small site on loopback, loads its page in headless Chromium (Debian's
// chromium package) and saves it as MHTML through the DevTools protocol's
// Page.captureSnapshot, as a browser's "save as single file" does.
//
//	go run ./internal/tools/mhtml-snapshot > testdata/documents/chromium.mhtml
//
// It is a tool for regenerating a fixture, not part of relurl.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/net/websocket"
)

// site is what the loopback server serves: a page in a directory, with a
// stylesheet, images, a frame, and links relative and absolute.
var site = map[string]string{
	"/docs/guide/index.html": `<!doctype html>
<html><head><title>Guide</title>
<link rel="stylesheet" href="../css/site.css">
</head><body>
<h1>Guide</h1>
<p><a href="chapter1.html">Chapter 1</a> · <a href="../api/">API</a> · <a href="/">Home</a> · <a href="#top">Top</a></p>
<p><img src="img/diagram.svg" alt="diagram"> <img src="../img/logo.png" srcset="../img/logo@2x.png 2x" alt="logo"></p>
<iframe src="frame.html"></iframe>
<p><a href="https://www.example.org/elsewhere">elsewhere</a></p>
</body></html>`,
	"/docs/guide/frame.html":       `<!doctype html><p><a href="chapter2.html">Chapter 2</a> <img src="img/in-frame.svg"></p>`,
	"/docs/css/site.css":           `body { background: url(../img/bg.png); font-family: sans-serif }`,
	"/docs/guide/img/diagram.svg":  `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>`,
	"/docs/guide/img/in-frame.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="5" height="5"><circle r="2" cx="2" cy="2"/></svg>`,
}

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := site[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		switch filepath.Ext(r.URL.Path) {
		case ".css":
			w.Header().Set("Content-Type", "text/css")
		case ".svg":
			w.Header().Set("Content-Type", "image/svg+xml")
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		fmt.Fprint(w, body)
	}))
	page := "http://" + ln.Addr().String() + "/docs/guide/index.html"

	profile, err := os.MkdirTemp("", "mhtml-snapshot")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(profile)
	chrome := exec.Command("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+profile, "--remote-debugging-port=0", "--remote-allow-origins=*", page)
	if err := chrome.Start(); err != nil {
		log.Fatal(err)
	}
	defer chrome.Process.Kill()

	// Chromium writes its DevTools port into the profile once it listens.
	var port string
	for deadline := time.Now().Add(30 * time.Second); port == ""; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			log.Fatal("chromium did not open its DevTools port")
		}
		if b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort")); err == nil {
			port = strings.SplitN(string(b), "\n", 2)[0]
		}
	}
	time.Sleep(2 * time.Second) // let the page and its frame load

	resp, err := http.Get("http://127.0.0.1:" + port + "/json/list")
	if err != nil {
		log.Fatal(err)
	}
	var targets []struct{ Type, URL, WebSocketDebuggerURL string }
	json.NewDecoder(resp.Body).Decode(&targets)
	resp.Body.Close()
	var wsURL string
	for _, t := range targets {
		if t.Type == "page" && t.URL == page {
			wsURL = t.WebSocketDebuggerURL
		}
	}
	if wsURL == "" {
		log.Fatalf("no page target for %s in %+v", page, targets)
	}
	ws, err := websocket.Dial(wsURL, "", "http://127.0.0.1/")
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	if err := websocket.JSON.Send(ws, map[string]any{"id": 1, "method": "Page.captureSnapshot", "params": map[string]any{"format": "mhtml"}}); err != nil {
		log.Fatal(err)
	}
	for {
		var msg struct {
			ID     int
			Result struct{ Data string }
			Error  *struct{ Message string }
		}
		if err := websocket.JSON.Receive(ws, &msg); err != nil {
			log.Fatal(err)
		}
		if msg.ID != 1 {
			continue
		}
		if msg.Error != nil {
			log.Fatal(msg.Error.Message)
		}
		os.Stdout.WriteString(msg.Result.Data)
		return
	}
}
