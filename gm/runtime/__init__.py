"""The moving parts: Maildirs, IMAP, SMTP, the sender threads and the daemon loop."""
