"""REST API of the compliance app, mounted at /api/compliance/: the client's prohibited-program reports (FRD-08).

The lobby or table client that detects a hand tracker, a HUD, screen capture or automation running beside it posts
what it found; the report is recorded against the logged-in player and raises (or raises the score of) their
``prohibited_program`` flag on the compliance desk. At most ``COMPLIANCE_PROGRAM_REPORTS_PER_DAY`` a day (429 beyond).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from compliance.errors import ComplianceError, RateLimited
from compliance.models import ProgramCategory
from compliance.services import program_report_create
from compliance.services.connections import address_of
from poker_site.core.strict_input import StrictSerializer


class ProgramReportSerializer(StrictSerializer):
    program = serializers.CharField(max_length=120, help_text="The program's name as the client found it.")
    category = serializers.ChoiceField(choices=ProgramCategory.choices)
    details = serializers.DictField(required=False, help_text="What else the client knows (at most 2,000 characters).")
    detected_at = serializers.DateTimeField(required=False, help_text="When the client found it (its clock).")


class ProgramReportAnswerSerializer(serializers.Serializer):
    id = serializers.IntegerField()


class ProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class ProgramReportView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ProgramReportSerializer,
        responses={201: ProgramReportAnswerSerializer, 400: ProblemSerializer, 429: ProblemSerializer},
        summary="Report a prohibited program found beside the client (FRD-08)",
    )
    def post(self, request: Request) -> Response:
        serializer = ProgramReportSerializer(data=request.data)
        if not serializer.is_valid():
            return Response(
                {"code": "invalid", "message": "invalid request", "errors": serializer.errors},
                status=status.HTTP_400_BAD_REQUEST,
            )
        values = serializer.validated_data
        try:
            report = program_report_create(
                request.user,  # type: ignore[arg-type]
                program=values["program"],
                category=values["category"],
                details=values.get("details"),
                detected_at=values.get("detected_at"),
                ip=address_of(request._request),
                user_agent=str(request.META.get("HTTP_USER_AGENT", "")),
            )
        except RateLimited as refusal:
            return Response(
                {"code": refusal.code, "message": refusal.message}, status=status.HTTP_429_TOO_MANY_REQUESTS
            )
        except ComplianceError as refusal:
            return Response({"code": refusal.code, "message": refusal.message}, status=status.HTTP_400_BAD_REQUEST)
        return Response({"id": report.pk}, status=status.HTTP_201_CREATED)
