"""Python client of the product-intelligence service (standard library only).

    from product_intelligence import Client

    client = Client(api_key=os.environ["PI_API_KEY"], host="https://pi.example.com")
    client.track("u_42", "feature_used", {"feature": "export_csv"})
    client.identify("u_42", {"plan": "pro"})
    print(client.features(date_range="last_7_days")["features"])
"""

from .client import Client
from .errors import ApiError, InvalidEventError, NetworkError, ProductIntelligenceError
from .version import VERSION

__all__ = ["ApiError", "Client", "InvalidEventError", "NetworkError", "ProductIntelligenceError", "VERSION"]
__version__ = VERSION
