package serve

import (
	"embed"
	"io/fs"
	"net/http"
)

// assets are the page, its script and style, and the vendored uPlot
// (assets/vendor/uplot: its dist files, licence and version).
//
//go:embed assets
var assets embed.FS

// assetHandler serves the embedded assets under /assets/.
func assetHandler() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree always has it
	}
	files := http.StripPrefix("/assets/", http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// page serves the explorer's one page.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	html, err := assets.ReadFile("assets/index.html")
	if err != nil {
		fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(html)
}
