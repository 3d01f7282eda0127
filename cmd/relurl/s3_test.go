package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/relurl/relurl/internal/clitest"
)

// The S3 tests run a real S3-compatible server, Versity's versitygw, on
// loopback: it checks signatures as AWS does. .ci/run builds it from the
// Go module proxy (.ci/install-versitygw) and names it in
// RELURL_VERSITYGW; elsewhere the tests look for versitygw on the PATH,
// and skip without it, saying how to get it.

const (
	s3Access = "relurl-test-key"
	s3Secret = "relurl-test-secret"
)

// startS3 starts versitygw on a free loopback port over a new directory,
// and returns its endpoint; the test stops it.
func startS3(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("RELURL_VERSITYGW")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("versitygw"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("CI needs versitygw: .ci/run installs it with .ci/install-versitygw")
			}
			t.Skip("no S3 server: run `bash .ci/install-versitygw` and set RELURL_VERSITYGW to the path it prints")
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "--port", addr, "--access", s3Access, "--secret", s3Secret, "--quiet", "posix", t.TempDir())
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	clitest.StopWithTest(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	for deadline := time.Now().Add(15 * time.Second); ; {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("versitygw does not listen on %s:\n%s", addr, log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return "http://" + addr
}

// s3Admin is a client with the server's credentials, to make the buckets.
func s3Admin(endpoint string) *s3.Client {
	return s3.New(s3.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(s3Access, s3Secret, ""),
	})
}

// TestS3 reads wget's crawl from a real S3-compatible server: signed with
// credentials from the environment, from ~/.aws files and a profile, with
// AWS_ENDPOINT_URL or -s3-endpoint; unsigned from a public bucket; a
// manifest in S3 with -prefix s3://; and fails clearly, at once, on a
// missing key, a wrong secret and a private bucket read unsigned.
func TestS3(t *testing.T) {
	file, want := localCrawl(t)
	endpoint := startS3(t)
	ctx := context.Background()
	admin := s3Admin(endpoint)
	put := func(bucket, key string, body []byte) {
		if _, err := admin.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(body)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range []string{"crawl", "public"} {
		if _, err := admin.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(b)}); err != nil {
			t.Fatal(err)
		}
	}
	put("crawl", "crawl-data/CC-TEST/docs.warc.gz", file)
	put("crawl", "crawl-data/CC-TEST/warc.paths.gz", gzipText("crawl-data/CC-TEST/docs.warc.gz\n"))
	put("public", "docs.warc.gz", file)
	policy := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":["s3:GetObject"],"Resource":["arn:aws:s3:::public/*"]}]}`
	if _, err := admin.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: aws.String("public"), Policy: aws.String(policy)}); err != nil {
		t.Fatal(err)
	}

	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".aws"), 0o700)
	os.WriteFile(filepath.Join(home, ".aws", "credentials"), []byte("[default]\naws_access_key_id = nobody\naws_secret_access_key = nothing\n\n[crawler]\naws_access_key_id = "+s3Access+"\naws_secret_access_key = "+s3Secret+"\n"), 0o600)
	os.WriteFile(filepath.Join(home, ".aws", "config"), []byte("[profile crawler]\nregion = us-east-1\n"), 0o600)

	// Each run gets a clean environment: HOME with no credentials unless
	// the case gives them, no instance metadata service to wait for.
	base := []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "AWS_EC2_METADATA_DISABLED=true"}
	withKeys := append(base[:len(base):len(base)], "AWS_ACCESS_KEY_ID="+s3Access, "AWS_SECRET_ACCESS_KEY="+s3Secret)
	const archive = "s3://crawl/crawl-data/CC-TEST/docs.warc.gz"
	tests := []struct {
		name   string
		env    []string
		args   []string
		stdout string
		stderr string // a part of it; "" for none at all but the summary
		code   int
	}{
		{"signed, keys in the environment, -s3-endpoint", withKeys, []string{"-s3-endpoint", endpoint, archive}, want, "", 0},
		{"signed, AWS_ENDPOINT_URL", append(withKeys, "AWS_ENDPOINT_URL="+endpoint), []string{archive}, want, "", 0},
		{"signed, ~/.aws files and AWS_PROFILE", []string{"HOME=" + home, "AWS_PROFILE=crawler", "AWS_ENDPOINT_URL=" + endpoint, "AWS_EC2_METADATA_DISABLED=true"}, []string{archive}, want, "", 0},
		{"a manifest in S3, -prefix s3://", withKeys, []string{"-s3-endpoint", endpoint, "-prefix", "s3://crawl/", "-files", "s3://crawl/crawl-data/CC-TEST/warc.paths.gz"}, want, "", 0},
		{"unsigned, a public bucket", base, []string{"-s3-endpoint", endpoint, "-s3-no-sign-request", "s3://public/docs.warc.gz"}, want, "", 0},
		{"a missing key", withKeys, []string{"-s3-endpoint", endpoint, "s3://crawl/nothing.warc.gz"}, "",
			"relurl links: s3://crawl/nothing.warc.gz: 404 NoSuchKey: The specified key does not exist.\n", 1},
		{"a wrong secret", append(base, "AWS_ACCESS_KEY_ID="+s3Access, "AWS_SECRET_ACCESS_KEY=wrong"), []string{"-s3-endpoint", endpoint, archive}, "",
			"relurl links: " + archive + ": 403 SignatureDoesNotMatch: The request signature we calculated does not match the signature you provided.", 1},
		{"a private bucket, unsigned", base, []string{"-s3-endpoint", endpoint, "-s3-no-sign-request", archive}, "",
			"relurl links: " + archive + ": 403 AccessDenied: Access Denied", 1},
		{"a bucket and no key", withKeys, []string{"-s3-endpoint", endpoint, "s3://crawl"}, "", "relurl links: s3://crawl: want s3://BUCKET/KEY", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(relurlBin, append([]string{"links", "-tsv"}, tt.args...)...)
			cmd.Env = tt.env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			cmd.Run()
			code := cmd.ProcessState.ExitCode()
			if code != tt.code || stdout.String() != tt.stdout {
				t.Errorf("exit %d, %d bytes of links (want %d, %d); stderr:\n%s", code, stdout.Len(), tt.code, len(tt.stdout), stderr.String())
			}
			if tt.stderr != "" && !strings.Contains(stderr.String(), tt.stderr) || tt.stderr == "" && strings.Contains(stderr.String(), "warning") {
				t.Errorf("stderr:\n%s\nwant it to say %q", stderr.String(), tt.stderr)
			}
			if tt.code != 0 && strings.Contains(stderr.String(), "tries)") {
				t.Errorf("a failure no retry mends was retried:\n%s", stderr.String())
			}
			t.Logf("%v", time.Since(start).Round(time.Millisecond))
		})
	}
}
