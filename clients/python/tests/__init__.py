import logging

# The client logs what it gives up; the tests look at on_error instead of printing those lines.
logging.getLogger("product_intelligence").addHandler(logging.NullHandler())
