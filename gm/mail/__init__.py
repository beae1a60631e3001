"""Mail as bytes <-> structures: inbound messages, the order-mail grammar, outbound messages."""
