"""E-mail: parsing inbound mail, telling who speaks, the body language, composing replies.

One inbound path for SMTP, IMAP and the webhook: `ingest.receive` stores the raw message (keyed by
Message-ID) and `ingest.process` handles it in one transaction through the service. See
docs/email.md.
"""
