from sqlalchemy.orm import Session

def save_order(session: Session, order):
    session.add(order)
    session.commit()
