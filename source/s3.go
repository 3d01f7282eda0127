package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// S3Options say how to reach S3 or an S3-compatible store. Credentials and
// region come from the AWS SDK's standard chain: the environment
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION,
// AWS_PROFILE), the shared files ~/.aws/config and ~/.aws/credentials with
// their profiles, SSO, and the roles of EC2 instances, ECS tasks and web
// identities. The region defaults to us-east-1, where Common Crawl's
// bucket is.
type S3Options struct {
	// Endpoint is the URL of an S3-compatible store, such as
	// http://127.0.0.1:9000; "" means AWS, or AWS_ENDPOINT_URL (or
	// AWS_ENDPOINT_URL_S3) when set. With an endpoint, buckets are
	// addressed by path (http://HOST/BUCKET/KEY), which every
	// S3-compatible store understands.
	Endpoint string
	// Unsigned sends requests without credentials, for public buckets,
	// as the AWS CLI's --no-sign-request.
	Unsigned bool
}

// s3Client is the S3 client of a run, made once.
type s3Client struct{ *s3.Client }

func (o *Options) s3Client(ctx context.Context) (*s3Client, error) {
	o.s3once.Do(func() {
		cfg, err := config.LoadDefaultConfig(ctx)
		if err != nil {
			o.s3err = fmt.Errorf("S3 configuration: %w", err)
			return
		}
		if cfg.Region == "" {
			cfg.Region = "us-east-1"
		}
		if o.Client != nil {
			cfg.HTTPClient = o.Client
		}
		endpoint := o.S3.Endpoint
		o.s3 = &s3Client{s3.NewFromConfig(cfg, func(so *s3.Options) {
			if endpoint != "" {
				so.BaseEndpoint = aws.String(endpoint)
			}
			so.UsePathStyle = so.BaseEndpoint != nil
			if o.S3.Unsigned {
				so.Credentials = aws.AnonymousCredentials{}
			}
			so.RetryMaxAttempts = 1 // the stream retries, the same way for every source
			so.AppID = "relurl"
			so.DisableLogOutputChecksumValidationSkipped = true // objects put by other tools have none
		})}
	})
	return o.s3, o.s3err
}

// openS3 opens s3://BUCKET/KEY, resumed with ranged GetObject requests
// that must match the first answer's ETag.
func (o *Options) openS3(ctx context.Context, name string) (*Object, error) {
	bucket, key, ok := strings.Cut(name[len("s3://"):], "/")
	if !ok || bucket == "" || key == "" {
		return nil, fmt.Errorf("%s: want s3://BUCKET/KEY", name)
	}
	client, err := o.s3Client(ctx)
	if err != nil {
		return nil, err
	}
	var etag *string
	get := func(ctx context.Context, off int64) (io.ReadCloser, error) {
		in := &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)}
		if off > 0 {
			in.Range = aws.String(fmt.Sprintf("bytes=%d-", off))
			in.IfMatch = etag
		}
		out, err := client.GetObject(ctx, in)
		var status *s3StatusError
		switch {
		case off > 0 && errors.As(s3Error(err), &status) && status.code == http.StatusPreconditionFailed:
			return nil, &permanentError{fmt.Sprintf("the object changed while it was read (ETag %s no longer matches: %v): not resumed", aws.ToString(etag), status)}
		case err != nil:
			return nil, s3Error(err)
		case off == 0:
			etag = out.ETag
		case aws.ToString(out.ETag) != aws.ToString(etag):
			// A store that ignores IfMatch: its bytes from off are another
			// object's.
			out.Body.Close()
			return nil, &permanentError{fmt.Sprintf("the object changed while it was read (ETag %s, then %s in a ranged answer that ignored If-Match): not resumed", aws.ToString(etag), aws.ToString(out.ETag))}
		}
		return out.Body, nil
	}
	s := &stream{ctx: ctx, name: name, get: get, retry: o.Retry.WithDefaults(), timeout: o.timeout()}
	if err := s.first(); err != nil {
		return nil, err
	}
	return &Object{ReadCloser: s, Name: name, URL: name, Resumed: func() int { return s.resumed }}, nil
}

// s3Error gives an S3 failure its HTTP status, so that a 503 SlowDown is
// retried and a 403 or 404 is not.
// Its text is the status and S3's error code and message, such as "404
// NoSuchKey: The specified key does not exist.", without the SDK's request
// IDs.
func s3Error(err error) error {
	var resp *smithyhttp.ResponseError
	if !errors.As(err, &resp) || resp.HTTPStatusCode() == 0 {
		return err
	}
	e := &s3StatusError{err: err, code: resp.HTTPStatusCode()}
	var api smithy.APIError
	if errors.As(err, &api) {
		e.msg = fmt.Sprintf("%d %s: %s", e.code, api.ErrorCode(), api.ErrorMessage())
	} else {
		e.msg = fmt.Sprintf("%d %s", e.code, http.StatusText(e.code))
	}
	return e
}

type s3StatusError struct {
	err  error
	msg  string
	code int
}

func (e *s3StatusError) Error() string   { return e.msg }
func (e *s3StatusError) Unwrap() error   { return e.err }
func (e *s3StatusError) HTTPStatus() int { return e.code }
