// Command devdb serves the MongoDB wire protocol on a local address with data in a
// directory, by embedding FerretDB (SQLite handler). qrelay uses it for development,
// tests and the embedded default because no MongoDB binary can be had on our machines.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	addr := flag.String("listen", "127.0.0.1:27017", "TCP address to serve the MongoDB wire protocol on")
	dir := flag.String("data", "data/devdb", "directory holding the SQLite database files")
	logLevel := flag.String("log-level", "error", "log level: debug, info, warn or error")
	cursorTimeout := flag.Duration("cursor-timeout", 30*time.Second, "kill cursors their client left idle for this long (each holds one of FerretDB's 100 SQLite connections)")
	stopOnEOF := flag.Bool("stop-on-stdin-eof", false, "shut down when standard input closes (the parent process died or let go)")
	flag.Parse()

	// FerretDB allocates a document's worth of garbage on every command (SJSON in and out):
	// at Go's default GOGC=100 the collector took a large share of the launcher's CPU under
	// qrelay's simulation. A heap five times the live one (tens of MB) costs far less
	// (docs/decisions/0002-a-patched-ferretdb.md). GOGC in the environment still decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fail("bad -log-level %q: use debug, info, warn or error", *logLevel)
	}
	logger := slog.New(&lazyHandler{base: slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})})

	abs, err := filepath.Abs(*dir)
	if err != nil {
		fail("bad -data %q: %v", *dir, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		fail("cannot create data directory %s: %v", abs, err)
	}

	lock, err := os.OpenFile(filepath.Join(abs, "devdb.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		fail("cannot open lock file in %s: %v", abs, err)
	}
	// SQLite files must have one writer process; a second devdb on the same directory
	// (on another port) would corrupt nothing only by luck.
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		fail("data directory %s is in use by another devdb; stop it or choose another -data", abs)
	}

	// FerretDB itself listens on a private socket; clients reach it through the
	// serializing proxy (serialize.go) on the public address.
	sockDir, err := os.MkdirTemp("", "devdb-")
	if err != nil {
		fail("cannot create a socket directory: %v", err)
	}
	defer os.RemoveAll(sockDir)
	sock := filepath.Join(sockDir, "ferretdb.sock")

	public, err := net.Listen("tcp", *addr)
	if err != nil {
		fail("cannot listen on %s: %v", *addr, err)
	}

	// synchronous=NORMAL: in WAL mode SQLite then writes each commit to the WAL without
	// waiting for the disk (fsync at checkpoints only). A killed process loses nothing it
	// acknowledged (test/devdb/ferretdb-patches.test.ts kills it); a power cut may lose the
	// last commits but never corrupts the file: the durability of MongoDB's default write
	// concern, whose journal is flushed every 100 ms. FULL (FerretDB's default) waited for
	// an fsync at every write, about a tenth of qrelay's simulation at 4,056 cases.
	db, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{Unix: sock},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/?_pragma=synchronous(normal)",
	})
	if err != nil {
		fail("cannot start on %s: %v", *addr, err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *stopOnEOF {
		// A parent that is killed cannot signal us; its end of our stdin closing is the
		// one notice that always arrives, so an orphaned dev database never lingers.
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}

	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = db.Run(ctx)
	}()
	_ = db.MongoDBURI() // blocks until FerretDB's listener is up

	stopDiagnostics := startDiagnostics()
	proxy := &serializer{
		log:     newCommandLog(),
		backend: func() (net.Conn, error) { return net.Dial("unix", sock) },
		logger:  logger,
		indexer: newLegacyIDIndex(abs),
		cursors: newCursorTracker(*cursorTimeout),
	}
	defer proxy.indexer.close()
	go func() {
		<-ctx.Done()
		public.Close()
	}()
	go func() {
		tick := time.NewTicker(max(*cursorTimeout/4, time.Second))
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				proxy.cursors.reap()
			}
		}
	}()
	go func() {
		if err := proxy.serve(public); err != nil {
			logger.Error("proxy stopped", slog.Any("error", err))
			stop()
		}
	}()

	// The line below is the readiness signal the Node side waits for.
	fmt.Printf("devdb ready mongodb://%s/ data=%s\n", public.Addr(), abs)
	<-done
	proxy.log.write()
	stopDiagnostics()
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "devdb: "+format+"\n", args...)
	os.Exit(1)
}
