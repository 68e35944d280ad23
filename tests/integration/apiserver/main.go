// Command apiserver runs a real kube-apiserver (k8s.io/kubernetes, version pinned
// in go.mod) backed by a real embedded etcd, for ascend-compile's integration
// tests. Everything listens on 127.0.0.1 only.
//
// It generates a throw-away CA, a serving certificate for 127.0.0.1/localhost,
// a service-account signing key and a static admin token (group
// system:masters), writes a kubeconfig with those credentials, and prints a
// line "READY <server-url>" on stdout once /readyz answers "ok".
//
// SIGTERM or SIGINT shuts down the apiserver, then etcd, and the process exits
// 0. A second signal exits at once.
package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"

	// The same registrations as cmd/kube-apiserver/apiserver.go.
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

const loopback = "127.0.0.1"

var (
	// Set when the parent process died; then --cleanup-dir is removed on exit.
	parentGone atomic.Bool
	cleanupDir = flag.String("cleanup-dir", "", "directory to delete on exit if the parent process died (its owner cannot)")
)

func main() {
	err := run()
	if parentGone.Load() && *cleanupDir != "" {
		_ = os.RemoveAll(*cleanupDir)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "apiserver: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	dir := flag.String("dir", "", "working directory for etcd data, certificates and keys (required)")
	kubeconfig := flag.String("kubeconfig", "", "where to write the admin kubeconfig (default <dir>/kubeconfig)")
	port := flag.Int("port", 0, "apiserver secure port on 127.0.0.1 (0: pick a free one)")
	etcdPort := flag.Int("etcd-port", 0, "etcd client port on 127.0.0.1 (0: pick a free one)")
	etcdPeerPort := flag.Int("etcd-peer-port", 0, "etcd peer port on 127.0.0.1 (0: pick a free one)")
	verbosity := flag.Int("v", 0, "kube-apiserver log verbosity")
	readyTimeout := flag.Duration("ready-timeout", 3*time.Minute, "give up if /readyz is not ok by then")
	exitWithParent := flag.Bool("exit-with-parent", true, "shut down (as on SIGTERM) when the parent process dies")
	flag.Parse()
	if *dir == "" {
		return fmt.Errorf("--dir is required")
	}
	if *kubeconfig == "" {
		*kubeconfig = filepath.Join(*dir, "kubeconfig")
	}
	for _, p := range []*int{port, etcdPort, etcdPeerPort} {
		if *p == 0 {
			free, err := freePort()
			if err != nil {
				return err
			}
			*p = free
		}
	}
	if err := os.MkdirAll(*dir, 0o700); err != nil {
		return err
	}

	// kube-apiserver's command installs the SIGTERM/SIGINT handler when it is
	// constructed; its context ends on the first signal. Build it first so a
	// signal during etcd start-up is handled too.
	cmd := app.NewAPIServerCommand()
	ctx := cmd.Context()
	if *exitWithParent {
		go watchParent()
	}

	creds, err := writeCredentials(*dir)
	if err != nil {
		return err
	}

	etcd, err := startEtcd(ctx, filepath.Join(*dir, "etcd"), *etcdPort, *etcdPeerPort)
	if err != nil {
		return err
	}
	defer func() {
		etcd.Close()
		<-etcd.Server.StopNotify()
	}()

	serverURL := "https://" + net.JoinHostPort(loopback, strconv.Itoa(*port))
	cmd.SetArgs([]string{
		"--etcd-servers=http://" + net.JoinHostPort(loopback, strconv.Itoa(*etcdPort)),
		"--bind-address=" + loopback,
		"--advertise-address=" + loopback,
		"--secure-port=" + strconv.Itoa(*port),
		"--cert-dir=" + filepath.Join(*dir, "certs"),
		"--tls-cert-file=" + creds.servingCert,
		"--tls-private-key-file=" + creds.servingKey,
		"--token-auth-file=" + creds.tokenFile,
		"--authorization-mode=RBAC",
		// Real clusters (kubeadm, kind, every distribution) allow privileged
		// containers; the flag's default, false, refuses every pod with
		// securityContext.privileged: true, which no real cluster does.
		"--allow-privileged=true",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + creds.saKey,
		"--service-account-signing-key-file=" + creds.saKey,
		"--service-cluster-ip-range=10.96.0.0/24",
		// The "kubernetes" Service endpoints would point at 127.0.0.1, which
		// Endpoints validation rejects; nothing in the tests needs them.
		"--endpoint-reconciler-type=none",
		"--profiling=false",
		"--shutdown-delay-duration=0s",
		"--v=" + strconv.Itoa(*verbosity),
	})
	cmd.SilenceErrors = true

	apiDone := make(chan error, 1)
	go func() { apiDone <- cmd.Execute() }()

	if err := writeKubeconfig(*kubeconfig, serverURL, creds); err != nil {
		return err
	}

	readyCtx, cancel := context.WithTimeout(ctx, *readyTimeout)
	defer cancel()
	readyErr := make(chan error, 1)
	go func() { readyErr <- waitReady(readyCtx, serverURL, creds) }()

	select {
	case err := <-apiDone:
		return fmt.Errorf("kube-apiserver exited before it was ready: %v", err)
	case err := <-readyErr:
		if err != nil {
			if ctx.Err() != nil { // stopped by a signal while starting
				return <-apiDone
			}
			return fmt.Errorf("kube-apiserver not ready: %w", err)
		}
	}
	fmt.Printf("READY %s\n", serverURL)
	os.Stdout.Sync()

	// Runs until the signal context ends and the server has shut down.
	if err := <-apiDone; err != nil {
		return fmt.Errorf("kube-apiserver: %w", err)
	}
	return nil
}

// watchParent sends this process SIGTERM once it is re-parented, i.e. when the
// test process that started it is gone, so no orphan keeps running.
func watchParent() {
	parent := os.Getppid()
	for range time.Tick(time.Second) {
		if os.Getppid() != parent {
			fmt.Fprintln(os.Stderr, "apiserver: parent process exited, shutting down")
			parentGone.Store(true)
			_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
			return
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(loopback, "0"))
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func startEtcd(ctx context.Context, dataDir string, clientPort, peerPort int) (*embed.Etcd, error) {
	cfg := embed.NewConfig()
	cfg.Name = "ascend-compile-test"
	cfg.Dir = dataDir
	clientURL := url.URL{Scheme: "http", Host: net.JoinHostPort(loopback, strconv.Itoa(clientPort))}
	peerURL := url.URL{Scheme: "http", Host: net.JoinHostPort(loopback, strconv.Itoa(peerPort))}
	cfg.ListenClientUrls = []url.URL{clientURL}
	cfg.AdvertiseClientUrls = []url.URL{clientURL}
	cfg.ListenPeerUrls = []url.URL{peerURL}
	cfg.AdvertisePeerUrls = []url.URL{peerURL}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.LogLevel = "error"
	cfg.Logger = "zap"
	cfg.LogOutputs = []string{"stderr"}
	// Test data: durability is not wanted, speed is.
	cfg.UnsafeNoFsync = true
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
	if os.Getenv("APISERVER_ETCD_LOGS") != "" {
		cfg.ZapLoggerBuilder = nil
	}

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, fmt.Errorf("start etcd: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
		return e, nil
	case err := <-e.Err():
		e.Close()
		return nil, fmt.Errorf("etcd: %w", err)
	case <-time.After(60 * time.Second):
		e.Close()
		return nil, fmt.Errorf("etcd did not become ready within 60s")
	case <-ctx.Done():
		e.Close()
		return nil, fmt.Errorf("interrupted while starting etcd")
	}
}

type credentials struct {
	caPEM       []byte
	servingCert string
	servingKey  string
	saKey       string
	tokenFile   string
	token       string
}

func writeCredentials(dir string) (*credentials, error) {
	pki := filepath.Join(dir, "pki")
	if err := os.MkdirAll(pki, 0o700); err != nil {
		return nil, err
	}
	now := time.Now()

	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "ascend-compile-test-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(7 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}

	srvKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	srvTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(7 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.ParseIP(loopback)},
		DNSNames:     []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
	}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, caCert, &srvKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	srvKeyDER, err := x509.MarshalECPrivateKey(srvKey)
	if err != nil {
		return nil, err
	}

	// Service-account tokens must be signed with RSA.
	saKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}

	tokenBytes := make([]byte, 24)
	if _, err := rand.Read(tokenBytes); err != nil {
		return nil, err
	}

	c := &credentials{
		caPEM:       pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		servingCert: filepath.Join(pki, "apiserver.crt"),
		servingKey:  filepath.Join(pki, "apiserver.key"),
		saKey:       filepath.Join(pki, "sa.key"),
		tokenFile:   filepath.Join(pki, "tokens.csv"),
		token:       hex.EncodeToString(tokenBytes),
	}
	files := map[string][]byte{
		filepath.Join(pki, "ca.crt"): c.caPEM,
		c.servingCert:                pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srvDER}),
		c.servingKey:                 pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: srvKeyDER}),
		c.saKey:                      pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(saKey)}),
		// token,user,uid,"group1,group2"
		c.tokenFile: []byte(fmt.Sprintf("%s,admin,admin,\"system:masters\"\n", c.token)),
	}
	for path, data := range files {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func writeKubeconfig(path, serverURL string, c *credentials) error {
	// JSON is valid YAML; strconv.Quote output is valid JSON for these ASCII values.
	ca := base64.StdEncoding.EncodeToString(c.caPEM)
	cfg := fmt.Sprintf(`{
  "apiVersion": "v1",
  "kind": "Config",
  "clusters": [{"name": "test", "cluster": {"server": %s, "certificate-authority-data": %s}}],
  "users": [{"name": "admin", "user": {"token": %s}}],
  "contexts": [{"name": "test", "context": {"cluster": "test", "user": "admin", "namespace": "default"}}],
  "current-context": "test"
}
`, strconv.Quote(serverURL), strconv.Quote(ca), strconv.Quote(c.token))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(cfg), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func waitReady(ctx context.Context, serverURL string, c *credentials) error {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(c.caPEM)
	client := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}
	last := "no answer yet"
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, serverURL+"/readyz", nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := client.Do(req)
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && strings.TrimSpace(string(body)) == "ok" {
				return nil
			}
			last = fmt.Sprintf("HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last answer: %s)", ctx.Err(), last)
		case <-time.After(250 * time.Millisecond):
		}
	}
}
