"""What people read: text reports and mail bodies, and the archive site.  Pure functions of data."""
