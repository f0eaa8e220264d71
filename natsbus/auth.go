package natsbus

import (
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
)

// Auth is how paiju proves itself to an external NATS server (--nats-url),
// and how it checks the server's certificate. Each way of authenticating is
// exclusive of the others; TLS combines with any of them.
type Auth struct {
	// Creds is a .creds file (a user JWT and its nkey seed).
	Creds string
	// NKeySeed is a file holding a user nkey seed.
	NKeySeed string
	// User and Password authenticate by name; Password may be empty only
	// if User is too.
	User, Password string
	// TLSCA is a PEM file of the CAs that sign the server's certificate;
	// empty trusts the system's roots when the URL asks for TLS.
	TLSCA string
	// TLSCert and TLSKey are the client certificate, for servers that
	// verify clients; both or neither.
	TLSCert, TLSKey string
}

// Options returns the connection options for a; the zero Auth gives none.
func (a Auth) Options() ([]nats.Option, error) {
	ways := 0
	for _, set := range []bool{a.Creds != "", a.NKeySeed != "", a.User != "" || a.Password != ""} {
		if set {
			ways++
		}
	}
	if ways > 1 {
		return nil, errors.New("natsbus: give one of a creds file, an nkey seed, or a user and password")
	}
	if (a.User == "") != (a.Password == "") {
		return nil, errors.New("natsbus: a NATS user needs a password and a password a user")
	}
	if (a.TLSCert == "") != (a.TLSKey == "") {
		return nil, errors.New("natsbus: a NATS client certificate needs its key and a key its certificate")
	}
	var opts []nats.Option
	switch {
	case a.Creds != "":
		opts = append(opts, nats.UserCredentials(a.Creds))
	case a.NKeySeed != "":
		o, err := nats.NkeyOptionFromSeed(a.NKeySeed)
		if err != nil {
			return nil, fmt.Errorf("natsbus: nkey seed %s: %w", a.NKeySeed, err)
		}
		opts = append(opts, o)
	case a.User != "":
		opts = append(opts, nats.UserInfo(a.User, a.Password))
	}
	if a.TLSCA != "" {
		opts = append(opts, nats.RootCAs(a.TLSCA))
	}
	if a.TLSCert != "" {
		opts = append(opts, nats.ClientCert(a.TLSCert, a.TLSKey))
	}
	return opts, nil
}

// IsZero tells whether a carries no credentials and no TLS settings.
func (a Auth) IsZero() bool { return a == Auth{} }
