"""The two real exports of this folder, made with the exporters people use (random weights:
nothing is downloaded), then every floating-point weight of more than 64 numbers set to 0
(shapes never depend on them; the .bin then compresses to a few kilobytes).

    pip install torch==2.14.1 torchvision==0.29.1 ultralytics==8.4.190 \
        optimum-intel==1.27.0 transformers==4.57.6 openvino==2026.4.1
    python sample_models/real/export.py

* yolov8n-dynamic: Ultralytics' YOLOv8n from yolov8n.yaml, exported with
  ``format="openvino", imgsz=640, dynamic=True, half=True``;
* bert-optimum: optimum-intel's OVModelForSequenceClassification export of a BERT
  (BertConfig: vocabulary 1,000, hidden 64, 2 layers, 2 heads, 512 positions).
"""
import re
import shutil
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def zeroed(xml: Path, name: str) -> None:
    """``xml`` and its .bin copied here as ``name``, the large float weights set to 0."""
    data = bytearray(xml.with_suffix(".bin").read_bytes())
    text = xml.read_text(encoding="utf-8")
    for found in re.finditer(r'<layer [^>]*type="Const"[^>]*>\s*<data ([^>]*)/>', text):
        attributes = dict(re.findall(r'(\w+)="([^"]*)"', found.group(1)))
        if attributes.get("element_type") in ("f16", "f32", "bf16") and int(attributes["size"]) > 256:
            offset, size = int(attributes["offset"]), int(attributes["size"])
            data[offset:offset + size] = bytes(size)
    shutil.copy(xml, HERE / f"{name}.xml")
    (HERE / f"{name}.bin").write_bytes(data)


def main() -> None:
    import torch
    from optimum.intel import OVModelForSequenceClassification
    from transformers import BertConfig, BertForSequenceClassification
    from ultralytics import YOLO
    torch.manual_seed(0)
    work = Path(tempfile.mkdtemp())
    YOLO("yolov8n.yaml").save(work / "yolov8n_random.pt")
    YOLO(work / "yolov8n_random.pt").export(format="openvino", imgsz=640, dynamic=True, half=True)
    zeroed(work / "yolov8n_random_openvino_model" / "yolov8n_random.xml", "yolov8n-dynamic")
    config = BertConfig(vocab_size=1000, hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=128,
                        max_position_embeddings=512, num_labels=2)
    BertForSequenceClassification(config).eval().save_pretrained(work / "bert")
    exported = OVModelForSequenceClassification.from_pretrained(work / "bert", export=True,
                                                                compile=False)
    exported.save_pretrained(work / "bert_ov")
    zeroed(work / "bert_ov" / "openvino_model.xml", "bert-optimum")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
