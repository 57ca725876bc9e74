"""One file per typing finding; each is checked by its own strict-xfail test."""
