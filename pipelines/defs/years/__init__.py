"""The regional circuits' calendar years: what each year was built from."""
