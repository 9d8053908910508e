"""Length limits of account fields, shared by the table, the checks and the forms."""

USERNAME_MIN = 3
USERNAME_MAX = 30
PASSWORD_MIN = 10
# argon2 hashes any length, but a megabyte password is a cheap way to burn our CPU.
PASSWORD_MAX = 256
DISPLAY_NAME_MAX = 50
EMAIL_MAX = 254
TIME_ZONE_MAX = 64
