"""Custom components of the demo connector: the CDK loads this file beside manifest.yaml."""
from dataclasses import InitVar, dataclass
from typing import Any, Iterable, Mapping, Optional

import requests
from airbyte_cdk.sources.declarative.extractors.record_extractor import RecordExtractor
from airbyte_cdk.sources.declarative.requesters.paginators.strategies.pagination_strategy import (
    PaginationStrategy,
)


@dataclass
class LabelledItemsExtractor(RecordExtractor):
    """Takes the records under `records` and adds a `label` made of a prefix and the id."""

    config: Mapping[str, Any]
    parameters: InitVar[Mapping[str, Any]]
    label_prefix: str = "item"

    def extract_records(self, response: requests.Response) -> Iterable[Mapping[str, Any]]:
        for record in response.json().get("records", []):
            yield {**record, "label": f"{self.label_prefix}-{record['id']}"}


@dataclass
class MetaCursorPagination(PaginationStrategy):
    """Follows `meta.next_cursor` until it is null."""

    config: Mapping[str, Any]
    parameters: InitVar[Mapping[str, Any]]

    @property
    def initial_token(self) -> Optional[Any]:
        return None

    def next_page_token(
        self,
        response: requests.Response,
        last_page_size: int,
        last_record: Optional[Any],
        last_page_token_value: Optional[Any] = None,
    ) -> Optional[Any]:
        return response.json().get("meta", {}).get("next_cursor")

    def get_page_size(self) -> Optional[int]:
        return None
