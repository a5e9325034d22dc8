"""The season reports, the site (index, player pages, circuits), their HTML and PDF."""
