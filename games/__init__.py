"""Built-in rule files (*.stw) and their scenario files (*.yaml), one folder per game family."""
