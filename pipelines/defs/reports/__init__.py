"""Season reports (HTML and PDF), the reports' index page and the player pages."""
